// How many processes of each service the fleet runs (FLEET_REPLICAS, docs/operations.md#adding-processes): a number
// for every service (`2`), or a count per service (`gateway=3,ingest=2`; the others one).

/** Processes per service, from FLEET_REPLICAS; throws on a value that names no service or is no count from 1. */
export function parseReplicas(value: string | undefined, services: readonly string[]): Map<string, number> {
  const counts = new Map(services.map((name) => [name, 1]));
  const raw = value?.trim();
  if (!raw) return counts;
  const count = (text: string, what: string) => {
    const n = Number(text.trim());
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`FLEET_REPLICAS: ${what} must be a whole number from 1, got '${text}'`);
    return n;
  };
  if (!raw.includes('=')) {
    const n = count(raw, 'the count');
    for (const name of services) counts.set(name, n);
    return counts;
  }
  for (const part of raw.split(',')) {
    const [name, n, ...rest] = part.split('=').map((s) => s.trim());
    if (!name || n === undefined || rest.length > 0)
      throw new Error(`FLEET_REPLICAS: '${part}' is not <service>=<count>`);
    if (!counts.has(name)) throw new Error(`FLEET_REPLICAS: no service '${name}' (services: ${services.join(', ')})`);
    counts.set(name, count(n, name));
  }
  return counts;
}
