// The menu: every view's place, with what it needs to be shown (a permission the user holds, a module that is
// on). The areas built later (logistics, sea chart, JIT queue, VIS) have their places here already; an entry
// with `ready: false` is not shown until its view exists.

import type { ModuleSetting } from '../session/session.tsx';

export interface MenuEntry {
  path: string;
  label: string;
  /** Shown when the user holds any of these (a prefix ending in `_` matches any permission starting with it). */
  permissions?: string[];
  module?: ModuleSetting;
  ready?: boolean;
}

export interface MenuSection {
  label: string;
  entries: MenuEntry[];
}

export const MENU: MenuSection[] = [
  {
    label: 'Port activity',
    entries: [
      { path: '/', label: 'Activity timeline', permissions: ['basic_user_action'], module: 'activity_module' },
      { path: '/berth-board', label: 'Berth board', permissions: ['basic_user_action'], module: 'activity_module' },
      { path: '/port-calls', label: 'Port calls', permissions: ['manage_port_call'], module: 'activity_module' },
      { path: '/vessels', label: 'Vessels', permissions: ['basic_user_action'] },
      { path: '/notifications', label: 'Notifications', permissions: ['basic_user_action'] },
    ],
  },
  {
    label: 'Port logistics',
    entries: [
      { path: '/logistics', label: 'Gate logistics', module: 'logistics_module' },
      { path: '/sea-chart', label: 'Sea chart', permissions: ['basic_user_action'], module: 'map_module' },
      { path: '/vis', label: 'STM / VIS', permissions: ['view_vis_information'], module: 'vis_module' },
      { path: '/inbound-vessels', label: 'Inbound vessels', permissions: ['basic_user_action'], module: 'vis_module' },
      { path: '/ports', label: 'Other ports', permissions: ['manage_port'], module: 'vis_module' },
      { path: '/dcsa', label: 'DCSA partners', permissions: ['manage_api_key'] },
    ],
  },
  {
    label: 'Just-in-time queue',
    entries: [
      {
        path: '/queue/dashboard',
        label: 'Queue dashboard',
        permissions: ['view_queue_slot_reservation'],
        module: 'queue_module',
      },
      {
        path: '/queue/slot-requests',
        label: 'Slot requests',
        permissions: ['view_queue_slot_reservation'],
        module: 'queue_module',
      },
      {
        path: '/queue/berth-calendar',
        label: 'Berth calendar',
        permissions: ['view_berth_reservation'],
        module: 'queue_module',
      },
      {
        path: '/queue/nominations',
        label: 'Nominations',
        permissions: ['view_all_queue_nomination'],
        module: 'queue_module',
      },
      {
        path: '/queue/my-nominations',
        label: 'My nominations',
        permissions: ['view_own_queue_nomination'],
        module: 'queue_module',
      },
      { path: '/queue/berths', label: 'Berths', permissions: ['view_berth'], module: 'queue_module' },
    ],
  },
  {
    label: 'Administration',
    entries: [
      { path: '/admin/users', label: 'Users', permissions: ['manage_user_'] },
      { path: '/admin/registration-codes', label: 'Registration codes', permissions: ['manage_registration_code'] },
      { path: '/admin/roles', label: 'Roles and permissions', permissions: ['manage_permission'] },
      { path: '/admin/api-keys', label: 'API keys', permissions: ['manage_api_key'] },
      { path: '/admin/priorities', label: 'API key priorities', permissions: ['manage_api_key'] },
      { path: '/admin/settings', label: 'Settings and modules', permissions: ['manage_setting'] },
      { path: '/admin/translations', label: 'Translations', permissions: ['manage_translation'] },
      {
        path: '/admin/fixed-vessels',
        label: 'Fixed vessels',
        permissions: ['manage_sea_chart_vessel'],
        module: 'map_module',
      },
    ],
  },
];

export function holdsAny(permissions: readonly string[], wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0) return true;
  return wanted.some((name) =>
    name.endsWith('_') ? permissions.some((held) => held.startsWith(name)) : permissions.includes(name),
  );
}

/** The sections and entries this user sees. */
export function visibleMenu(
  permissions: readonly string[],
  moduleOn: (module: ModuleSetting) => boolean,
): MenuSection[] {
  return MENU.map((section) => ({
    label: section.label,
    entries: section.entries.filter(
      (entry) =>
        entry.ready !== false &&
        holdsAny(permissions, entry.permissions) &&
        (entry.module === undefined || moduleOn(entry.module)),
    ),
  })).filter((section) => section.entries.length > 0);
}
