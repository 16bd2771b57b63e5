// The clear page for a form link that cannot be used: incomplete (no token), expired, or not valid (forged,
// altered, from another port). Says what happened and what to do, without any detail of the token.

import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { PublicFrame } from '../../layout/PublicFrame.tsx';
import { Notice } from '../account/notice.tsx';

export type Refusal = 'incomplete' | 'expired' | 'invalid';

/** The API's 403 for a link: `This link has expired` or `This link is not valid`. */
export function linkRefusal(error: unknown): Refusal | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  return /expired/i.test(error.message) ? 'expired' : 'invalid';
}

const TEXTS: Record<Refusal, [string, string]> = {
  incomplete: ['This link is incomplete', 'Open the link from the e-mail exactly as it is.'],
  expired: [
    'This link has expired',
    'Links in the port’s e-mails work for a limited time. The port’s next e-mail about your request has a new one; or contact the port.',
  ],
  invalid: [
    'This link is not valid',
    'The link may have been changed or cut. Open it again from the e-mail exactly as it is, or contact the port.',
  ],
};

export function LinkRefused({ reason, title }: { reason: Refusal; title: string }) {
  const { t } = useTranslation();
  const [heading, text] = TEXTS[reason];
  return (
    <PublicFrame title={title}>
      <Stack>
        <Notice color="red" title={t(heading)}>
          <Text size="sm">{t(text)}</Text>
        </Notice>
      </Stack>
    </PublicFrame>
  );
}
