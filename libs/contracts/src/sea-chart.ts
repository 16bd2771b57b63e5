// ---- the sea chart (owned by ingest): vessel positions, fixed vessels. Streams, events and commands. ----
