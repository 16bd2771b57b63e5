// The RTA form (`/agent/eta-form/rta/?token=…`), where the RTA web form mail's link lands: the port's required time
// of arrival for the vessel, the ETA window around it and the berth, as the signed link carries them (checked by
// the service; valid six hours). No sign-in; an expired or forged link gets a page that says so.

import { Stack, Table, Text } from '@mantine/core';
import type { RtaFormClaims } from '@pcas/values';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { Loading } from '../../components/states-ui.tsx';
import { formatTime } from '../../components/time.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { Notice } from '../account/notice.tsx';
import { LinkRefused, linkRefusal } from './link-refused.tsx';

const TITLE = 'Required time of arrival';

/** The form's claims as GET /agent/rest/eta-form/rta answers them, with the link's expiry. */
export interface RtaFormView extends RtaFormClaims {
  expires: string;
}

export default function RtaForm() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const query = useQuery({
    queryKey: ['rta-form', token],
    enabled: token !== '',
    queryFn: () => api<RtaFormView>('GET', 'agent/rest/eta-form/rta', { token }),
  });

  if (!token) return <LinkRefused reason="incomplete" title={TITLE} />;
  if (query.isPending) return <Loading label="Opening the RTA…" />;
  const refused = linkRefusal(query.error);
  if (refused) return <LinkRefused reason={refused} title={TITLE} />;
  if (query.isError) {
    return (
      <PublicFrame title={TITLE}>
        <Notice color="red" title={t('The RTA cannot be shown')}>
          {t(query.error.message)}
        </Notice>
      </PublicFrame>
    );
  }
  const rta = query.data;
  const rows: [string, string][] = [
    ['Port', rta.port],
    ['Vessel', `${rta.vessel_name} (IMO ${rta.imo})`],
    ['RTA', formatTime(rta.rta)],
    ['Arrive between', `${formatTime(rta.eta_min)} – ${formatTime(rta.eta_max)}`],
    ['Berth', rta.berth],
    ['LOA / beam / draft (m)', `${rta.vessel_loa} / ${rta.vessel_beam} / ${rta.vessel_draft}`],
  ];
  return (
    <PublicFrame title={TITLE}>
      <Stack gap="md">
        <Text size="sm">
          {t('The port asks your vessel to arrive at the outer port area at the required time of arrival (RTA).')}
        </Text>
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w="40%">{t(label)}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          {t('This link is valid until {{time}}', { time: formatTime(rta.expires) })}
        </Text>
      </Stack>
    </PublicFrame>
  );
}
