export { proxy, type McpProxy } from './proxy';
export type { ProxyMatcher, ProxyOptions, ProxyTarget, ProxyTimers } from './proxy-options';
