// Incoming notifications on every signed-in page: a message on notifications-changed (everyone's) or
// notifications-changed-<user id> (the user's pinned vessels) pops up bottom right as "<sender>: <message>",
// except the user's own, and the notification list refreshes. The original read `sender.email` without a
// guard and broke on a message without one; here any payload is read defensively, and one that is not a
// notification (the original's `[]`) only refreshes.

import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { refresh } from '../../api/queries.ts';
import { useChannels } from '../../realtime/socket.ts';
import { useSession } from '../../session/session.tsx';
import {
  DECISIONS_PATH,
  messageOf,
  NOTIFICATIONS_CHANNEL,
  NOTIFICATIONS_PATH,
  type Notification,
  senderEmail,
  vesselOf,
} from './model.ts';

/** What a channel message pops up as, or null for none (no message, or the user's own). */
export function popupOf(
  data: unknown,
  currentEmail: string | null | undefined,
): { title?: string; message: string } | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const notification = data as Notification;
  const message = messageOf(notification).trim();
  if (!message) return null;
  const sender = senderEmail(notification);
  if (sender && currentEmail && sender.toLowerCase() === currentEmail.toLowerCase()) return null;
  const vessel = vesselOf(notification);
  return { title: vessel ?? undefined, message: sender ? `${sender}: ${message}` : message };
}

export default function NotificationPopups() {
  const { t } = useTranslation();
  const { user } = useSession();
  const client = useQueryClient();
  useChannels([NOTIFICATIONS_CHANNEL, user ? `${NOTIFICATIONS_CHANNEL}-${user.id}` : null], (data) => {
    void refresh(client, NOTIFICATIONS_PATH, DECISIONS_PATH);
    const popup = popupOf(data, user?.email);
    if (!popup) return;
    notifications.show({
      title: popup.title,
      message: popup.message,
      position: 'bottom-right',
      autoClose: 10_000,
      withBorder: true,
      closeButtonProps: { 'aria-label': t('Dismiss notification') },
    });
  });
  return null;
}
