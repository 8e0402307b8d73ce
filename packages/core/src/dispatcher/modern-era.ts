// Moved to eras/modern and errors/: re-exported here until every importer has moved.
export { MODERN_PROTOCOL_VERSIONS } from '../protocol/protocol-versions';
export { HeaderMismatchError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError } from '../errors/mcp-error';
export { META, SERVER_DISCOVER, SUBSCRIPTIONS_LISTEN, SUBSCRIPTIONS_ACKNOWLEDGED, SUBSCRIPTION_ID } from '../eras/modern/meta';
export { hasModernClaim, readModernRequest, type ModernRequest } from '../eras/modern/read-request';
export { discoverResult, serverInfoMeta, shapeModernResult, MRTR_METHODS, inputRequiredResult } from '../eras/modern/results';
export { honouredFilter } from '../eras/modern/listen-filter';
