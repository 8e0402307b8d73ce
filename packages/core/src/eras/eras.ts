import type { EraName } from '../wire/frame';
import type { Era, EraHost, LastingAccess, Session, SessionHost } from './era';
import type { ListenSnapshot } from '../model/session-snapshot';
import { handshakeEra } from './handshake/codec';
import { modernEra } from './modern/codec';

/** The codec of each era, by the name a frame carries. */
export const ERAS: Readonly<Record<EraName, Era>> = Object.freeze({ legacy: handshakeEra, modern: modernEra });

const ALL: readonly Era[] = Object.values(ERAS);

/** Opens a client's session on a channel, by the codec of the era that keeps sessions. */
export function openSession(host: SessionHost): Session {
  for (const era of ALL) if (era.openSession !== undefined) return era.openSession(host);
  throw new Error('no era keeps sessions');
}

/** Re-opens a request that lasts (a listen) of a continued session, by the codec of the era that has them. */
export function reopenLasting(open: ListenSnapshot, host: EraHost, access: LastingAccess): void {
  for (const era of ALL) if (era.reopen !== undefined) return era.reopen(open, host, access);
  throw new Error('no era has requests that last');
}
