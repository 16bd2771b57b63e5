// What `pnpm start` prints once the service is listening: where it is and how the administrator signs in, in a
// frame, so it stands out from the log lines above it.

export interface LoginBlockInput {
  url: string;
  email: string;
  /** The default password, shown while it is the one set; undefined when ADMIN_PASSWORD chose one. */
  defaultPassword?: string;
}

export function loginBlock({ url, email, defaultPassword }: LoginBlockInput): string {
  const lines = [
    `Port Call Activity Service is ready: ${url}`,
    '',
    `Administrator:  ${email}`,
    defaultPassword
      ? `Password:       ${defaultPassword}  (the default: change it at ${url}/profile)`
      : 'Password:       the one in ADMIN_PASSWORD',
    ...(defaultPassword ? ['Set ADMIN_EMAIL / ADMIN_PASSWORD to choose them.'] : []),
    '',
    'Ctrl-C stops the service.',
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '─'.repeat(width + 2);
  return [`┌${rule}┐`, ...lines.map((line) => `│ ${line.padEnd(width)} │`), `└${rule}┘`]
    .map((line) => `  ${line}`)
    .join('\n');
}
