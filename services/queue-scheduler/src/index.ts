// Built by its own issue; the package exists so the workspace shape matches docs/architecture.md#services.
export {};
