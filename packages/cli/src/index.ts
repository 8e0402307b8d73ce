export { loadApp, resolveEntry, type LoadAppOptions } from './load-app';
export { describeApp } from './describe-app';
export { configSnippet, CLIENTS, type ClientName } from './commands/config';
export { parsePairs } from './commands/call';
export { CliError, EXIT } from './cli-error';
