// The phrases of the queue's e-mails, keyed as the original keyed them: the English text after a prefix naming the
// mail. The queue-scheduler translates its mails with them; the gateway serves their English texts as
// translation defaults, so a port sees and edits them in the translations editor before storing any.

const SLOT = '[EMAIL SLOT REQUEST]';
const ALERT = '[EMAIL LIVE ETA ALERT]';
const BLOCK = '[EMAIL BERTH BLOCK]';
const RTA_FORM = '[EMAIL RTA FORM]';

/** Every key the mails use (the English text is the key's tail). */
export const MAIL_TRANSLATION_KEYS: readonly string[] = [
  `${SLOT} Slot request`,
  `${SLOT} offer`,
  `${SLOT} confirmation`,
  `${SLOT} nomination not found`,
  `${SLOT} free slot not available`,
  `${SLOT} updated by port`,
  `${SLOT} cancellation confirmation`,
  `${SLOT} cancelled by port`,
  `${SLOT} Please send your JIT ETA to outer port area based on RTA window given by port.`,
  `${SLOT} Your JIT ETA to outer port area has been accepted.`,
  `${SLOT} Port is unable to find nomination for your slot request.`,
  `${SLOT} Port is unable to find free slot for your request.`,
  `${SLOT} Port has updated your JIT ETA.`,
  `${SLOT} Your slot request has been cancelled by your request.`,
  `${SLOT} Your slot request has been cancelled by port.`,
  `${SLOT} To view and update your slot request please use the link below.`,
  `${SLOT} This link is valid until:`,
  `${ALERT} Live ETA alert for`,
  `${ALERT} Ship`,
  `${ALERT} JIT ETA differs from Live ETA`,
  `${ALERT} JIT ETA`,
  `${ALERT} Live ETA`,
  `${ALERT} unknown`,
  `${BLOCK} Berth`,
  `${BLOCK} block`,
  `${BLOCK} shifted`,
  `${BLOCK} has been shifted due to laytime change`,
  `${BLOCK} New berth block time`,
  `${RTA_FORM} Link to RTA form`,
  `${RTA_FORM} The port has given your vessel a required time of arrival (RTA). Please open the form below.`,
  `${RTA_FORM} This link is valid until:`,
];

/** The English text of a mail key: what follows its `[EMAIL …] ` prefix. */
export function mailKeyText(key: string): string {
  const space = key.indexOf('] ');
  return space < 0 ? key : key.slice(space + 2);
}
