/**
 * Fields that hold credentials, wherever a log line could carry them: a request's headers
 * (`req.headers.authorization`), an OAuth answer or form (`access_token`, `refresh_token`,
 * `id_token`, `client_secret`), a tool's arguments with `logArguments` (`arguments.token`).
 */
const SECRET_KEYS = ['authorization', 'access_token', 'refresh_token', 'id_token', 'token', 'client_secret'] as const;

/** The keys `LOG_REDACT_PATHS` censors, at any of its depths. */
export const REDACTED_KEYS: ReadonlySet<string> = new Set(SECRET_KEYS);

/**
 * pino `redact` paths for credentials: each secret key at the top of a line and up to three
 * levels down (`token`, `*.token`, `*.*.token`, `*.*.*.token`). `createLogger` applies them; pass
 * them to a pino logger of your own: `pino({ redact: { paths: [...LOG_REDACT_PATHS], censor: '[Redacted]' } })`.
 *
 * @example
 * const logger = pino({ level: 'info', redact: { paths: [...LOG_REDACT_PATHS], censor: '[Redacted]' } });
 * const app = createApp({ name: 'notes', version: '1.0.0', providers, logger });
 */
export const LOG_REDACT_PATHS: readonly string[] = Object.freeze(SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`, `*.*.*.${key}`]));

/** What a redacted value is written as. */
export const REDACTED = '[Redacted]';
