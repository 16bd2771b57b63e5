// Waiting in tests: a condition polled until a deadline, never a fixed sleep. The deadline only catches a hang; it
// is no timing assertion.

/** Polls `read` until `done` holds of what it gives or `ms` pass; the last value read, for the caller to assert. */
export async function pollUntil<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  ms = 30_000,
  everyMs = 25,
): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + ms; !done(value) && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    value = await read();
  }
  return value;
}

/** Polls until `read` gives a value (anything but undefined); throws once `ms` pass. */
export async function waitForValue<T>(
  read: () => T | undefined | Promise<T | undefined>,
  ms = 30_000,
  what = 'a condition',
): Promise<T> {
  const value = await pollUntil(read, (v) => v !== undefined, ms);
  if (value === undefined) throw new Error(`timed out waiting for ${what}`);
  return value;
}

/** Polls until `check` holds; throws once `ms` pass. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 30_000, what?: string): Promise<void> {
  await waitForValue(async () => ((await check()) ? true : undefined), ms, what);
}

/** Polls `read` until `done` holds of its value, and gives it; throws naming `what` and the last value once `ms` pass. */
export async function eventually<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  ms = 30_000,
): Promise<T> {
  const value = await pollUntil(read, done, ms);
  if (!done(value)) throw new Error(`${what} did not happen within ${ms} ms: ${JSON.stringify(value)}`);
  return value;
}

/**
 * A promise one step of a test waits on, and the call that lets it go on: a lock taken, a handler entered, a
 * holder released.
 */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
