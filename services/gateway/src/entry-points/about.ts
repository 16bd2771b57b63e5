// What the service says about itself: in the OpenAPI document's info and on the page at /.

import gatewayPackage from '../../package.json' with { type: 'json' };

export const SERVICE_NAME = 'Port Call Activity Service';
export const SERVICE_VERSION: string = gatewayPackage.version;

/**
 * The first administrator's password in embedded mode when ADMIN_PASSWORD is not set: the launcher prints it,
 * and the page at / tells a person to change it for as long as it is still this one.
 */
export const EMBEDDED_ADMIN_PASSWORD = 'port-admin-change-me';
