import type { LogLevel } from '../logging/log-levels';

/**
 * Client-visible logging (`notifications/message`), as opposed to the server's own log
 * (`ctx.logger`). Messages below the level the client set are not sent; before the client
 * sets one, nothing is sent unless the app opted in with a default level.
 *
 * @example
 * ctx.log.info({ file, bytes }, 'indexer');
 */
export class ClientLog {
  constructor(private readonly emit: (level: LogLevel, data: unknown, logger?: string) => void) {}

  debug(data: unknown, logger?: string): void {
    this.emit('debug', data, logger);
  }

  info(data: unknown, logger?: string): void {
    this.emit('info', data, logger);
  }

  notice(data: unknown, logger?: string): void {
    this.emit('notice', data, logger);
  }

  warning(data: unknown, logger?: string): void {
    this.emit('warning', data, logger);
  }

  error(data: unknown, logger?: string): void {
    this.emit('error', data, logger);
  }

  critical(data: unknown, logger?: string): void {
    this.emit('critical', data, logger);
  }

  alert(data: unknown, logger?: string): void {
    this.emit('alert', data, logger);
  }

  emergency(data: unknown, logger?: string): void {
    this.emit('emergency', data, logger);
  }
}
