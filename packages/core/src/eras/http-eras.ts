import { legacyHttp } from './handshake/http';
import { modernHttp } from './modern/http';

/**
 * Each era's Streamable HTTP rules in the order they claim a request: the first that claims it
 * serves it (the legacy era claims whatever the modern era does not).
 */
export const HTTP_ERAS: readonly [typeof modernHttp, typeof legacyHttp] = Object.freeze([modernHttp, legacyHttp] as const);
