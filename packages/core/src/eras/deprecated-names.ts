// The era names before the one vocabulary (issue #27): the legacy era was also "handshake", the
// modern era "stateless". Kept for one release so adapters can move; removed in the next one.
import { isLegacyVersion, legacyHttp, legacyHttpStatus } from './handshake/http';
import { modernHttp } from './modern/http';

/** @deprecated use `legacyHttp` (removed in the next release). */
export const handshakeHttp: typeof legacyHttp = legacyHttp;

/** @deprecated use `legacyHttpStatus` (removed in the next release). */
export const handshakeHttpStatus: typeof legacyHttpStatus = legacyHttpStatus;

/** @deprecated use `isLegacyVersion` (removed in the next release). */
export const isHandshakeVersion: typeof isLegacyVersion = isLegacyVersion;

/** @deprecated use `modernHttp` (removed in the next release). */
export const statelessHttp: typeof modernHttp = modernHttp;
