// A DCSA partner as an administrator registers it (docs/dcsa.md#partners): its name, the API key it calls us with
// (which holds the `dcsa_partner` permission), the base URL of its own JIT endpoints and the credentials we send
// there, and the vessels whose times it follows. Pure: checks the input and decides the event.

import { ApiError } from '@pcas/contracts';
import { isValidImo } from '@pcas/values';

export interface PartnerInput {
  name: string;
  api_key_id: number;
  base_url: string;
  /** undefined: keep what is stored (a change); '' clears it. */
  credentials?: string;
  vessel_imos: number[];
  active: boolean;
}

const text = (name: string, value: unknown, max: number): string => {
  if (typeof value !== 'string' || value.trim() === '') throw ApiError.badRequest(`Missing parameter: ${name}`);
  if (value.length > max) throw ApiError.badRequest(`Parameter too long: ${name}`);
  return value.trim();
};

export function readPartner(input: Record<string, unknown>): PartnerInput {
  const name = text('name', input.name, 200);
  const apiKeyId = typeof input.api_key_id === 'string' ? Number(input.api_key_id) : input.api_key_id;
  if (typeof apiKeyId !== 'number' || !Number.isSafeInteger(apiKeyId) || apiKeyId <= 0) {
    throw ApiError.badRequest('Invalid api_key_id');
  }
  const baseUrl = text('base_url', input.base_url, 2000).replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw ApiError.badRequest(`Invalid base_url: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw ApiError.badRequest(`Invalid base_url: ${baseUrl}`);
  const imos = input.vessel_imos ?? [];
  if (!Array.isArray(imos)) throw ApiError.badRequest('vessel_imos must be a list of IMO numbers');
  const vessel_imos = [...new Set(imos.map((v) => (typeof v === 'string' ? Number(v) : v)))];
  for (const imo of vessel_imos) if (!isValidImo(imo)) throw ApiError.badRequest(`Invalid IMO: ${String(imo)}`);
  let credentials: string | undefined;
  if (input.credentials !== undefined && input.credentials !== null) {
    if (typeof input.credentials !== 'string' || input.credentials.length > 4000) {
      throw ApiError.badRequest('Invalid credentials');
    }
    credentials = input.credentials;
  }
  const active = input.active === undefined ? true : input.active === true || input.active === 'true';
  return { name, api_key_id: apiKeyId, base_url: baseUrl, credentials, vessel_imos: vessel_imos as number[], active };
}

/** The event of a registration or change; the credentials stay out of it (a secret). */
export function partnerEvent(
  partnerId: number,
  input: PartnerInput,
  existing: boolean,
): { type: string; data: Record<string, unknown> } {
  return {
    type: existing ? 'DcsaPartnerChanged' : 'DcsaPartnerRegistered',
    data: {
      partner_id: partnerId,
      name: input.name,
      api_key_id: input.api_key_id,
      base_url: input.base_url,
      vessel_imos: input.vessel_imos,
      active: input.active,
    },
  };
}
