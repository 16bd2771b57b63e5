// What a secret shared with a peer port must be (docs/security.md#vis-peers): every request between the two is
// signed with keys derived from it, so a secret that can be guessed or searched for lets anyone speak for the peer.
// Pure.

export const MIN_SECRET_LENGTH = 32;
/** What the sealing on the way from the gateway is sized for, and more than any generator makes. */
export const MAX_SECRET_LENGTH = 128;
const MIN_DISTINCT_CHARACTERS = 10;

/** The kinds of characters counted: a secret of one kind only (all digits, all lower case) is refused. */
const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];

/** Why `secret` may not be used to link a peer, or undefined when it may. */
export function peerSecretProblem(secret: string): string | undefined {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    return `Peer secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`;
  }
  const distinct = new Set(secret).size;
  const classes = CLASSES.filter((c) => c.test(secret)).length;
  if (distinct < MIN_DISTINCT_CHARACTERS || classes < 2) {
    return (
      `Peer secret is too easy to guess: use at least ${MIN_DISTINCT_CHARACTERS} different characters of at ` +
      'least two kinds (lower case, upper case, digits, others), e.g. 32 random bytes in hex or base64'
    );
  }
  return undefined;
}
