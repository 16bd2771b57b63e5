// The notifier's copies of what other services own and it shows or decides with (docs/notifications.md#what-the-notifier-learns-from-other-services):
// users (a sender's name and e-mail; who receives a push: deleted users get none, each one's time zone), stored
// translations (the VESSEL push's label; folded by `evolveTranslations` of @pcas/contracts) and vessel names (titles, the notification's ship). Pure folds of the
// owners' events; the adapter applies them in stream order (adapters/copies.ts).

import type { UserCreated, UserDeleted, UserTimeZoneChanged, UserUpdated } from '@pcas/contracts';

export interface UserCopy {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  /** `active`, `api_user` or `deleted` (a deleted user receives no push and is shown as "ex-user"). */
  status: string;
  time_zone: string | null;
}

export interface CopiedEvent {
  type: string;
  data: unknown;
}

/** A user after one event of its stream; events that change nothing copied are passed over. */
export function evolveUser(user: UserCopy | null, id: number, event: CopiedEvent): UserCopy | null {
  const base: UserCopy = user ?? { id, email: '', first_name: '', last_name: '', status: 'active', time_zone: null };
  switch (event.type) {
    case 'UserCreated': {
      const e = event.data as UserCreated;
      return { ...base, email: e.email, first_name: e.first_name, last_name: e.last_name, status: e.status };
    }
    case 'UserUpdated': {
      const e = event.data as UserUpdated;
      return { ...base, email: e.email, first_name: e.first_name, last_name: e.last_name };
    }
    case 'UserTimeZoneChanged':
      return { ...base, time_zone: (event.data as UserTimeZoneChanged).time_zone };
    case 'UserDeleted':
      // Anonymised as the gateway's own row (docs/domain.md: e-mail `<id>@deleted`, names emptied, no zone).
      return {
        ...base,
        email: `${(event.data as UserDeleted).id ?? id}@deleted`,
        first_name: '',
        last_name: '',
        status: 'deleted',
        time_zone: null,
      };
    default:
      return user;
  }
}
