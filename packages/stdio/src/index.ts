export { serveStdio, type StdioOptions, type StdioServer } from './serve-stdio';
export { LineReader, type LineEvent } from './line-reader';
