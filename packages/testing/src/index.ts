export { TestClient, RpcError, firstText, type TestClientOptions, type InitializeInfo } from './test-client';
export { RawStdioClient, type ExitInfo } from './raw-stdio-client';
export { HttpServerProcess } from './http-server-process';
