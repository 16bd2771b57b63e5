// What the authorization matrix test expects, written out by hand and never derived from the gateway's own
// tables: a route declared with too weak a permission, or a role seeded with one too many, then fails the test
// instead of moving the expectation along with it.
//
// - ROUTE_PERMISSIONS: every endpoint of the interface spec's route tables with the permission the spec gives
//   it, then the original app's routes that the spec leaves out (its route table: suspension and lock,
//   codeless sign-up, public settings, payload-key weights, decisions, vessel types, the list paths without
//   their `:limit` segment), then the routes this project adds. The spec's permission names are used as they
//   are; the rule that reads them (aliases, `manage_user`, API-key-only names) is in the test.
// - DEFAULT_ROLE_MATRIX: the original's default role → permission matrix (its seeding migrations), the table a
//   new installation starts from.

export interface PinnedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  permission: string;
  /** Which part of the product the route belongs to; the areas of later issues are listed in PENDING_AREAS. */
  area: string;
}

/** Areas whose routes the gateway does not serve yet: their rows are skipped, with this reason, until they land. */
export const PENDING_AREAS: Readonly<Record<string, string>> = {};

// method, path, permission, area; one route a line.
const ROUTES = `
  # The interface spec: session and account
  POST   /login                                                  login                          account
  POST   /logout                                                 login                          account
  GET    /session                                                login                          account
  POST   /register                                               public                         account
  POST   /request-password-reset                                 public                         account
  POST   /reset-password                                         public                         account
  POST   /change-password                                        manage_user                    account
  POST   /register-push-token                                    basic_user_action              account
  POST   /push-notification-tokens                               push_notification_token        account

  # The interface spec: users, registration codes, roles, settings
  GET    /users                                                  manage_user                    admin
  POST   /users                                                  manage_user                    admin
  PUT    /users/:id                                              manage_user                    admin
  GET    /users/:id                                              manage_user                    admin
  DELETE /users/:id                                              manage_user                    admin
  GET    /registration-codes/:limit                              manage_registration_code       admin
  POST   /registration-codes                                     manage_registration_code       admin
  PUT    /registration-codes/:id                                 manage_registration_code       admin
  DELETE /registration-codes/:id                                 manage_registration_code       admin
  GET    /roles                                                  basic_user_action              admin
  GET    /permissions                                            basic_user_action              admin
  GET    /role-permissions                                       basic_user_action              admin
  GET    /role-permissions/by-role/:role                         basic_user_action              admin
  PUT    /role-permissions/:role/:permission                     manage_permission              admin
  DELETE /role-permissions/:role/:permission                     manage_permission              admin
  GET    /settings                                               basic_user_action              admin
  GET    /settings/by-name/:name                                 basic_user_action              admin
  PUT    /settings/:name/:value                                  manage_setting                 admin
  GET    /health-check                                           public                         admin

  # The interface spec: API keys and priorities
  GET    /api-keys                                               manage_api_key                 api-keys
  POST   /api-keys                                               manage_api_key                 api-keys
  PUT    /api-keys/disable                                       manage_api_key                 api-keys
  PUT    /api-keys/enable                                        manage_api_key                 api-keys
  PUT    /api-keys/permissions                                   manage_api_key                 api-keys
  GET    /timestamp-api-key-weights                              manage_api_key                 api-keys
  POST   /timestamp-api-key-weights                              manage_api_key                 api-keys

  # The interface spec: timestamps, port calls and export
  POST   /timestamps                                             add_manual_timestamp           activity
  GET    /timestamp-definitions                                  add_manual_timestamp           activity
  GET    /timestamps                                             manage_port_call               activity
  DELETE /timestamps                                             manage_port_call               activity
  GET    /export/timestamps                                      export_api                     activity
  GET    /export/port-calls                                      export_api                     activity
  GET    /port-calls                                             basic_user_action              activity
  GET    /port-call-timestamps                                   basic_user_action              activity
  GET    /non-port-call-timestamps                               basic_user_action              activity
  GET    /ongoing-port-calls                                     basic_user_action              activity
  GET    /berth-board                                            basic_user_action              activity
  GET    /port-call                                              basic_user_action              activity
  GET    /port-call-csv                                          basic_user_action              activity
  GET    /port-call-template                                     basic_user_action              activity
  GET    /port-call-range                                        manage_port_call               activity
  POST   /port-call-range                                        manage_port_call               activity
  POST   /update-port-call-id                                    manage_port_call               activity
  POST   /unset-port-call-id                                     manage_port_call               activity
  POST   /restore-timestamp                                      manage_port_call               activity
  GET    /rebuild-port-calls                                     manage_port_call               activity
  GET    /timestamps-to-port-calls                               manage_port_call               activity
  GET    /force-close-port-call                                  manage_port_call               activity
  GET    /force-scan-port-call                                   manage_port_call               activity
  GET    /vessels                                                basic_user_action              activity
  POST   /vessel-visibility                                      manage_port_call               activity
  POST   /rta-web-form                                           send_rta_web_form              queue

  # The interface spec: agent (data source) endpoints, all "timestamp"
  POST   /agent/rest/timestamps                                  timestamp                      activity
  POST   /agent/rest/logistics-timestamps                        timestamp                      logistics
  POST   /agent/rest/vis-notifications                           timestamp                      vis
  POST   /agent/rest/vis-messages                                timestamp                      vis
  POST   /agent/rest/vis-voyage-plans                            timestamp                      vis
  POST   /agent/rest/vis-vessels                                 timestamp                      vis
  POST   /agent/rest/live-eta                                    timestamp                      queue
  POST   /agent/rest/inbound-vessels                             timestamp                      vis
  POST   /agent/rest/slot-reservations                           timestamp                      queue
  PUT    /agent/rest/slot-reservations                           timestamp                      queue
  GET    /agent/rest/slot-reservation-by-id                      timestamp                      queue
  DELETE /agent/rest/slot-reservations                           timestamp                      queue

  # The interface spec: notifications, pinning, translations
  GET    /notifications/:limit                                   basic_user_action              notifications
  POST   /notifications                                          send_push_notification         notifications
  DELETE /notifications/:id                                      delete_push_notification       notifications
  GET    /pinned-vessel-ids                                      basic_user_action              activity
  PUT    /pinned-vessel-ids                                      basic_user_action              activity
  POST   /translation/:ns/:lng                                   translation                    translations
  GET    /translations/:ns/:lng                                  public                         translations
  PUT    /translations/:ns/:lng                                  manage_translation             translations
  POST   /translations/:ns/:lng                                  manage_translation             translations

  # The interface spec: VIS and other ports
  GET    /vis-services                                           view_vis_information           vis
  GET    /vis-vessels                                            view_vis_information           vis
  GET    /vis-voyage-plans                                       view_vis_information           vis
  GET    /vis-text-messages                                      view_vis_information           vis
  GET    /vis-notifications                                      view_vis_information           vis
  GET    /vis-service-poll                                       view_vis_information           vis
  GET    /vis-configuration                                      view_vis_information           vis
  POST   /vis-text-messages-with-imo                             send_vis_text_message          vis
  POST   /vis-text-messages                                      send_vis_text_message          vis
  POST   /vis-send-rta                                           send_vis_rta                   vis
  GET    /inbound-vessels                                        basic_user_action              vis
  POST   /ports                                                  manage_port                    vis
  GET    /ports                                                  manage_port                    vis
  POST   /port-whitelist-in                                      manage_port                    vis
  POST   /port-whitelist-out                                     manage_port                    vis

  # The interface spec: logistics
  GET    /logistics-timestamps/:limit                            basic_user_action              logistics
  GET    /logistics-timestamps/by-license-plate/:license_plate   basic_user_action              logistics

  # The interface spec: berths, nominations, reservations, slots
  POST   /berths                                                 manage_berth                   queue
  PUT    /berths                                                 manage_berth                   queue
  DELETE /berths                                                 manage_berth                   queue
  GET    /berths                                                 view_berth                     queue
  GET    /berth-by-id                                            view_berth                     queue
  POST   /own-nominations                                        manage_own_queue_nomination    queue
  PUT    /own-nominations                                        manage_own_queue_nomination    queue
  DELETE /own-nominations                                        manage_own_queue_nomination    queue
  GET    /own-nominations                                        view_own_queue_nomination      queue
  GET    /own-nomination-by-id                                   view_own_queue_nomination      queue
  GET    /all-nominatable-berths                                 view_own_queue_nomination      queue
  GET    /consignee-users                                        view_all_queue_nomination      queue
  POST   /nomination-for-consignee                               manage_all_queue_nomination    queue
  PUT    /nominations                                            manage_all_queue_nomination    queue
  DELETE /nominations                                            manage_all_queue_nomination    queue
  GET    /nominations                                            view_all_queue_nomination      queue
  GET    /nomination-by-id                                       view_all_queue_nomination      queue
  POST   /berth-reservations                                     manage_berth_reservation       queue
  PUT    /berth-reservations                                     manage_berth_reservation       queue
  DELETE /berth-reservations                                     manage_berth_reservation       queue
  GET    /berth-reservations                                     view_berth_reservation         queue
  GET    /berth-reservation-by-id                                view_berth_reservation         queue
  POST   /slot-reservations                                      manage_queue_slot_reservation  queue
  PUT    /slot-reservations                                      manage_queue_slot_reservation  queue
  DELETE /slot-reservations                                      manage_queue_slot_reservation  queue
  GET    /slot-reservations                                      view_queue_slot_reservation    queue
  GET    /slot-reservation-by-id                                 view_queue_slot_reservation    queue
  GET    /dashboard-slot-reservations                            view_queue_slot_reservation    queue

  # The interface spec: sea chart
  GET    /sea-chart/vessels                                      basic_user_action              sea-chart
  GET    /sea-chart/markers                                      basic_user_action              sea-chart
  POST   /sea-chart/vessels                                      update_sea_chart_location      sea-chart
  GET    /sea-chart/fixed-vessels                                modify_sea_chart_vessels       sea-chart
  POST   /sea-chart/fixed-vessel                                 modify_sea_chart_vessels       sea-chart
  DELETE /sea-chart/fixed-vessel                                 modify_sea_chart_vessels       sea-chart

  # The original app's routes that the spec leaves out, with the original's permission names
  POST   /user-suspend                                           manage_user                    admin
  POST   /user-lock                                              manage_user                    admin
  POST   /codeless-register                                      public                         account
  GET    /public-settings                                        public                         admin
  GET    /payload-key-api-key-weights                            manage_api_key                 api-keys
  POST   /payload-key-api-key-weights                            manage_api_key                 api-keys
  GET    /sea-chart/fixed-vessel                                 manage_sea_chart_vessel        sea-chart
  PUT    /sea-chart/fixed-vessel                                 manage_sea_chart_vessel        sea-chart
  GET    /vessel-types                                           basic_user_action              activity
  PUT    /vessel                                                 manage_vessel                  activity
  GET    /decisions                                              basic_user_action              notifications
  GET    /decision-by-id                                         basic_user_action              notifications
  POST   /close-decision                                         send_push_notification         notifications
  DELETE /decisions                                              delete_push_notification       notifications
  POST   /decision-item-response                                 send_push_notification         notifications
  # The original matched paths by prefix and its clients call these lists without the ":limit" segment.
  GET    /registration-codes                                     manage_registration_code       admin
  GET    /notifications                                          basic_user_action              notifications

  # This project's own: a data source setting a vessel's type (the original had no such path)
  POST   /agent/rest/vessel-type                                 timestamp                      activity

  # This project's own: whether our web UI's sea chart loads map tiles, and from where
  GET    /sea-chart/map-settings                                 basic_user_action              sea-chart

  # This project's own: the vessel's JIT ETA and RTA forms, whose signed link's token is the credential
  GET    /agent/rest/eta-form/slot-reservation                   public                         queue
  PUT    /agent/rest/eta-form/slot-reservations                  public                         queue
  DELETE /agent/rest/eta-form/slot-reservations                  public                         queue
  GET    /agent/rest/eta-form/rta                                public                         queue

  # This project's own: the VIS endpoint other ports reach in direct mode (a peer's signature is the credential,
  # checked by the vis-bridge), and the link to each peer
  POST   /vis/messages                                           public                         vis
  POST   /vis/batch                                              public                         vis
  POST   /vis/textMessage                                        public                         vis
  POST   /vis/voyagePlans                                        public                         vis
  POST   /vis/departure                                          public                         vis
  POST   /vis/acknowledgement                                    public                         vis
  POST   /port-peer                                              manage_port                    vis

  # This project's own: DCSA Just in Time Port Call 2.0.0 (docs/dcsa.md), a partner's API key, and its administration
  PUT    /dcsa/jit/v2/port-calls/:id                             dcsa_partner                   dcsa
  POST   /dcsa/jit/v2/port-calls/:id/omit                        dcsa_partner                   dcsa
  GET    /dcsa/jit/v2/port-calls                                 dcsa_partner                   dcsa
  PUT    /dcsa/jit/v2/terminal-calls/:id                         dcsa_partner                   dcsa
  POST   /dcsa/jit/v2/terminal-calls/:id/omit                    dcsa_partner                   dcsa
  GET    /dcsa/jit/v2/terminal-calls                             dcsa_partner                   dcsa
  PUT    /dcsa/jit/v2/port-call-services/:id                     dcsa_partner                   dcsa
  POST   /dcsa/jit/v2/port-call-services/:id/cancel              dcsa_partner                   dcsa
  POST   /dcsa/jit/v2/port-call-services/:id/decline             dcsa_partner                   dcsa
  GET    /dcsa/jit/v2/port-call-services                         dcsa_partner                   dcsa
  PUT    /dcsa/jit/v2/timestamps/:id                             dcsa_partner                   dcsa
  GET    /dcsa/jit/v2/timestamps                                 dcsa_partner                   dcsa
  PUT    /dcsa/jit/v2/vessel-statuses/:id                        dcsa_partner                   dcsa
  GET    /dcsa/jit/v2/vessel-statuses                            dcsa_partner                   dcsa
  GET    /dcsa-partners                                          manage_api_key                 dcsa
  POST   /dcsa-partners                                          manage_api_key                 dcsa
  PUT    /dcsa-partners/:id                                      manage_api_key                 dcsa
  POST   /dcsa-partners/:id/retry                                manage_api_key                 dcsa
  GET    /dcsa-outbox                                            manage_api_key                 dcsa
  GET    /dcsa-timestamps                                        basic_user_action              dcsa
  POST   /dcsa-timestamps/:id/plan                               add_manual_timestamp           dcsa

  # This project's own: the API's description, and the service's status page for a person (the web UI is at /)
  GET    /openapi.json                                           public                         docs
  GET    /status                                                 public                         docs
`;

export const ROUTE_PERMISSIONS: readonly PinnedRoute[] = ROUTES.split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => {
    const [method, path, permission, area, ...rest] = line.split(/\s+/);
    if (!area || rest.length > 0) throw new Error(`pinned route line: ${line}`);
    return { method: method as PinnedRoute['method'], path, permission, area };
  });

export const ROLE_NAMES = ['admin', 'second_admin', 'first_user', 'user', 'inactive_user', 'consignee'] as const;

// One permission a line; a column per role in ROLE_NAMES' order, x = granted.
const MATRIX = `
  #                                admin  second_admin  first_user  user  inactive_user  consignee
  login                            x      x             x           x     .              x
  basic_user_action                x      x             x           x     .              .
  manage_user_admin                x      .             .           .     .              .
  manage_user_second_admin         x      x             .           .     .              .
  manage_user_first_user           x      x             .           .     .              .
  manage_user_user                 x      x             .           .     .              .
  manage_user_inactive_user        x      x             .           .     .              .
  manage_user_consignee            x      x             .           .     .              .
  manage_registration_code         x      x             .           .     .              .
  manage_permission                x      .             .           .     .              .
  manage_translation               x      .             .           .     .              .
  manage_setting                   x      x             .           .     .              .
  manage_api_key                   x      x             .           .     .              .
  send_push_notification           x      x             x           .     .              .
  delete_push_notification         x      x             .           .     .              .
  send_rta_web_form                x      x             x           .     .              .
  add_manual_timestamp             x      x             x           .     .              .
  manage_port_call                 x      x             .           .     .              .
  view_vis_information             x      x             x           x     .              .
  send_vis_text_message            x      x             x           .     .              .
  send_vis_rta                     x      x             x           .     .              .
  manage_port                      x      .             .           .     .              .
  view_own_queue_nomination        x      x             .           .     .              x
  manage_own_queue_nomination      x      x             .           .     .              x
  view_all_queue_nomination        x      x             .           .     .              .
  manage_all_queue_nomination      x      x             .           .     .              .
  view_queue_slot_reservation      x      x             .           .     .              .
  manage_queue_slot_reservation    x      x             .           .     .              .
  manage_berth                     x      .             .           .     .              .
  view_berth                       x      x             x           .     .              .
  manage_berth_reservation         x      x             .           .     .              .
  view_berth_reservation           x      x             x           .     .              .
  manage_own_user                  x      x             .           .     .              .
  manage_all_user                  x      .             .           .     .              .
  manage_sea_chart_vessel          x      x             .           .     .              .
  manage_vessel                    x      x             .           .     .              .
`;

/** Role → the permissions it holds on a new installation. */
export const DEFAULT_ROLE_MATRIX: Readonly<Record<string, readonly string[]>> = (() => {
  const matrix: Record<string, string[]> = Object.fromEntries(ROLE_NAMES.map((role) => [role, []]));
  for (const line of MATRIX.split('\n').map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const [permission, ...marks] = line.split(/\s+/);
    if (marks.length !== ROLE_NAMES.length) throw new Error(`pinned matrix line: ${line}`);
    marks.forEach((mark, i) => {
      if (mark === 'x') matrix[ROLE_NAMES[i]].push(permission);
    });
  }
  return matrix;
})();

/**
 * Routes whose answer to an API client (no text/html in Accept) is fixed, whoever calls: the status page is for
 * browsers, and API clients get the 404 of an unknown path there.
 */
export const API_CLIENT_ANSWERS: Readonly<Record<string, { status: number; body: unknown }>> = {
  'GET /status': { status: 404, body: { error: 'Not found' } },
};

/** Route permissions no role can hold: every active API key has them, nobody else. */
export const API_KEY_ONLY = [
  'timestamp',
  'translation',
  'push_notification_token',
  'export_api',
  'update_sea_chart_location',
  'dcsa_partner',
];

/** The spec's name → the original's permission row it stands for. */
export const SPEC_PERMISSION_NAMES: Readonly<Record<string, string>> = {
  modify_sea_chart_vessels: 'manage_sea_chart_vessel',
};
