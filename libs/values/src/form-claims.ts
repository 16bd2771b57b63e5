// What a signed RTA form link carries (docs/queue.md): signed by the queue-scheduler into the link it mails, read
// back by the gateway and shown by the web UI's RTA form. Types only, so the browser can import them.

/** The claims of an RTA form link: the port's required time of arrival and the vessel it is for. */
export interface RtaFormClaims {
  port: string;
  rta: string;
  eta_min: string;
  eta_max: string;
  email: string;
  imo: number;
  vessel_name: string;
  vessel_loa: number | string;
  vessel_beam: number | string;
  vessel_draft: number | string;
  berth: string;
}
