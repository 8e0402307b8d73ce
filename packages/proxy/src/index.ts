export { proxy, type ProxyApp } from './proxy';
export type { ProxyMatcher, ProxyOptions, ProxyTarget, ProxyTimers } from './proxy-options';
