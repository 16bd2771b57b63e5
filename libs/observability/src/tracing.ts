// OpenTelemetry tracing. Spans are created everywhere through @opentelemetry/api (a no-op until an SDK is
// started). `startTracing` starts the Node SDK only when the standard OTEL_* variables ask for an exporter,
// so tracing is off by default. Trace context crosses process boundaries as W3C `traceparent`/`tracestate`
// strings: in AMQP headers and in event metadata.

import { type Context, context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

export type { Context, Span };
export { SpanKind };

export const tracer = () => trace.getTracer('port-call-activity-service');

export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The current trace context as W3C header strings (empty when no span is active). */
export function currentTraceCarrier(): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const out: TraceCarrier = {};
  if (carrier.traceparent) out.traceparent = carrier.traceparent;
  if (carrier.tracestate) out.tracestate = carrier.tracestate;
  return out;
}

export function contextFromCarrier(carrier: TraceCarrier | Record<string, unknown> | undefined): Context {
  if (!carrier) return context.active();
  const headers: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate'] as const) {
    const value = (carrier as Record<string, unknown>)[key];
    if (typeof value === 'string') headers[key] = value;
  }
  return propagation.extract(context.active(), headers);
}

/** Runs fn inside a new span (child of `parent` when given, else of the active context). */
export async function withSpan<T>(
  name: string,
  options: {
    kind?: SpanKind;
    parent?: TraceCarrier | Record<string, unknown>;
    attributes?: Record<string, string | number | boolean>;
  },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parentContext = options.parent ? contextFromCarrier(options.parent) : context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parentContext,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

let sdk: { shutdown(): Promise<void> } | undefined;

/** Starts the OpenTelemetry Node SDK when OTEL_TRACES_EXPORTER or an OTLP endpoint is configured. */
export async function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env) {
  const exporter = env.OTEL_TRACES_EXPORTER;
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (sdk || (!endpoint && (!exporter || exporter === 'none'))) return;
  const loaded = await import('@opentelemetry/sdk-node');
  // Bundled (the production build), the CommonJS package's exports arrive as the module's default.
  const { NodeSDK } = 'NodeSDK' in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  const instance = new NodeSDK({ serviceName: env.OTEL_SERVICE_NAME ?? serviceName });
  instance.start();
  sdk = instance;
}

export async function stopTracing() {
  await sdk?.shutdown();
  sdk = undefined;
}
