// Which web UI the gateway serves at /: WEB_UI_DIR when set (it must hold an index.html), else our own build
// (web/, built by `pnpm install`) when it exists. Without one, / shows the status page and the API works as ever.

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@pcas/config';
import type { WebUiOptions } from '@pcas/http-kit';
import { BUILT_WEB_UI_DIR, webUiContentSecurityPolicy } from '@pcas/web/output';

export function webUiOf(config: Pick<Config, 'webUiDir' | 'seaChart'>): WebUiOptions | undefined {
  if (config.webUiDir !== undefined) {
    const dir = path.resolve(config.webUiDir);
    if (!existsSync(path.join(dir, 'index.html'))) throw new Error(`WEB_UI_DIR ${dir} has no index.html`);
    return { dir };
  }
  if (existsSync(path.join(BUILT_WEB_UI_DIR, 'index.html'))) {
    // The sea chart's tiles may come from the port's tile server (MAP_TILE_SERVER) on another host.
    const policy = webUiContentSecurityPolicy({ mapTileServer: config.seaChart.tileServer });
    return { dir: BUILT_WEB_UI_DIR, contentSecurityPolicy: policy };
  }
  return undefined;
}
