import type { EraName } from '../wire/frame';
import type { Era } from './era';
import { handshakeEra } from './handshake/codec';
import { modernEra } from './modern/codec';

/** The codec of each era, by the name a frame carries. */
export const ERAS: Readonly<Record<EraName, Era>> = Object.freeze({ legacy: handshakeEra, modern: modernEra });
