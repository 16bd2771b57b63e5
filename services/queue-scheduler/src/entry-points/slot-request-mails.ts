// The slot request mails of the queue's log (docs/queue.md#the-queues-e-mails-the-vessels-forms-live-eta), made in
// the mail projection's transaction (mails.ts): each mailed status change becomes one mail with the request's
// newest JIT ETA form link, recorded in the outbox with the event it comes from.

import type { Config } from '@pcas/config';
import type { SlotRequestEvents, SlotRequestStatus } from '@pcas/contracts';
import type { RecordedEvent } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';
import { recordMails } from '../adapters/outbox.ts';
import { mailTextsSql, translationsOf } from '../adapters/port-settings.ts';
import type { SignedLinks } from '../adapters/signed-link.ts';
import { type Mail, mailsStatus, slotRequestMail } from '../domain/mails.ts';

/** The status a slot request event leaves the request in, when it is one that is mailed. */
function mailedStatus(event: RecordedEvent): SlotRequestStatus | undefined {
  const data = event.data as { status?: SlotRequestStatus };
  switch (event.type as keyof SlotRequestEvents) {
    case 'SlotRequestReceived':
    case 'SlotRequestResolved':
    case 'SlotRequestUpdated':
    case 'SlotRequestPushedForward':
    case 'SlotRequestCancelled':
      return data.status && mailsStatus(data.status) ? data.status : undefined;
    default:
      return undefined;
  }
}

/**
 * The slot request mails of a batch of events, recorded in the projection's transaction in two statements: the
 * addresses of the requests received recorded, those the other events need and the port's texts read (as they
 * are now, no cache to go stale), then the mails recorded, claimed for the delivery right after the commit.
 */
export async function slotRequestEventMails(
  tx: Queryable,
  events: readonly RecordedEvent[],
  { config, links, log }: { config: Config; links: SignedLinks; log: Logger },
): Promise<{ id: string; mail: Mail }[]> {
  const timeZone = config.portDefaultTimeZone;
  const received = new Map<number, string>();
  for (const event of events) {
    const data = event.data as { id: number; email?: string };
    if (event.type === 'SlotRequestReceived' && data.email && !received.has(data.id)) received.set(data.id, data.email);
  }
  const mailed = events.flatMap((event) => {
    const status = mailedStatus(event);
    return status ? [{ event, status, id: (event.data as { id: number }).id }] : [];
  });
  if (received.size === 0 && mailed.length === 0) return [];
  // The address each request was received with (its first event, so the one the table holds).
  const unknown = [...new Set(mailed.map((m) => m.id).filter((id) => !received.has(id)))];
  const params: unknown[] = [[...received.keys()], [...received.values()], unknown];
  let textsSql = "'{}'::json";
  if (mailed.length > 0) {
    textsSql = mailTextsSql('$4');
    params.push(config.namespace);
  }
  const { rows } = await tx.query<{ addresses: { id: number; email: string }[]; texts: Record<string, string> }>(
    `WITH recorded AS (INSERT INTO queue.mail_slot_requests (id, email) SELECT * FROM unnest($1::int[], $2::text[])
                        ON CONFLICT (id) DO NOTHING)
     SELECT (SELECT coalesce(json_agg(json_build_object('id', id, 'email', email)), '[]')
               FROM queue.mail_slot_requests WHERE id = ANY($3::int[])) AS addresses,
            ${textsSql} AS texts`,
    params,
  );
  if (mailed.length === 0) return [];
  const addresses = new Map(rows[0].addresses.map((row) => [row.id, row.email]));
  const portTexts = translationsOf(rows[0].texts);
  const mails: { id: string; mail: Mail }[] = [];
  const linkOf = new Map<string, { slotRequestId: number; linkId: string }>();
  for (const { event, status, id } of mailed) {
    // A request received in this batch: the address it was received with, as the table then holds.
    const email = addresses.get(id) ?? received.get(id);
    if (!email) {
      log.warn({ slot_request_id: id, event: event.type }, 'slot request mail without an address; not sent');
      continue;
    }
    // The link's id is the event's: a mail made again from the same event would carry the same link.
    const link = links.slotRequest(id, event.created.getTime(), event.id);
    const mail = slotRequestMail(
      {
        slot_request_id: id,
        status,
        email,
        link: `${config.jitEtaFormUrl}?token=${link.token}`,
        linkExpires: link.expires,
      },
      portTexts,
      timeZone,
    );
    if (mail) {
      mails.push({ id: `slotrequest-${event.id}`, mail });
      linkOf.set(`slotrequest-${event.id}`, { slotRequestId: id, linkId: link.id });
    }
  }
  const fresh = new Set(await recordMails(tx, mails, true));
  // Each request's newest link is the last one recorded here (the events come in the log's order).
  const newest = new Map<number, string>();
  for (const m of mails) {
    const link = linkOf.get(m.id);
    if (link && fresh.has(m.id)) newest.set(link.slotRequestId, link.linkId);
  }
  if (newest.size > 0) {
    await tx.query(
      `UPDATE queue.mail_slot_requests m SET link_id = l.link_id
         FROM unnest($1::int[], $2::text[]) AS l(id, link_id) WHERE m.id = l.id`,
      [[...newest.keys()], [...newest.values()]],
    );
  }
  return mails.filter((m) => fresh.has(m.id));
}
