// ---- cmd.vis-bridge: VIS/STM messaging (VIS vessels, text messages, voyage plans, notifications, RTA, inbound
// vessels, ports and whitelists). Streams, events and commands of the vis-bridge service. ----

export const VIS_BRIDGE = 'vis-bridge';
