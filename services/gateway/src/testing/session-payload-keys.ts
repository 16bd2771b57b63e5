// The keys of the sign-in and session answer, in the order the clients read them: written out by hand, so a
// change of the payload's shape fails the tests that pin it instead of moving along with it.
export const SESSION_PAYLOAD_KEYS = [
  'session_id',
  'user',
  'modules',
  'session',
  'jwt',
  'rta_point_coordinates',
  'map_default_coordinates',
  'map_default_zoom',
];
