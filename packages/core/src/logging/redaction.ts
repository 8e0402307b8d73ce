/**
 * Fields that hold credentials, wherever a log line could carry them: a request's headers
 * (`req.headers.authorization`), an OAuth answer or form (`access_token`, `refresh_token`,
 * `id_token`, `client_secret`), a tool's arguments with `logArguments` (`arguments.token`).
 */
const SECRET_KEYS = ['authorization', 'access_token', 'refresh_token', 'id_token', 'token', 'client_secret'] as const;

/** The keys `LOG_REDACT_PATHS` censors. */
export const REDACTED_KEYS: ReadonlySet<string> = new Set(SECRET_KEYS);

/**
 * pino `redact` paths for credentials: each secret key at the top of a line and one level down
 * (`token`, `*.token`), in a request's headers (`req.headers.authorization`, `*.headers.authorization`)
 * and in a tool's arguments (`arguments.*.token`). No wildcard goes two levels down: pino's
 * redaction then walks into whatever a line holds there, and a Buffer on an error (a client's
 * malformed request, logged at debug) makes it throw, which would take the process down.
 * `createLogger` applies them; pass them to a pino logger of your own:
 * `pino({ redact: { paths: [...LOG_REDACT_PATHS], censor: '[Redacted]' } })`.
 *
 * @example
 * const logger = pino({ level: 'info', redact: { paths: [...LOG_REDACT_PATHS], censor: '[Redacted]' } });
 * const app = createApp({ name: 'notes', version: '1.0.0', providers, logger });
 */
export const LOG_REDACT_PATHS: readonly string[] = Object.freeze([
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `arguments.*.${key}`]),
  'req.headers.authorization',
  '*.headers.authorization',
]);

/** What a redacted value is written as. */
export const REDACTED = '[Redacted]';
