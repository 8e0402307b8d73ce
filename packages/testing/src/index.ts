export { TestClient, RpcError, firstText, type TestClientOptions, type InitializeInfo, type ClientRequestHandler, type ObservedMessage } from './test-client';
export { RawStdioClient, type ExitInfo, type RawMessage } from './raw-stdio-client';
export { HttpServerProcess } from './http-server-process';
export { OtlpReceiver, spanAttribute, type OtlpExport, type OtlpMetric, type OtlpSpan } from './otlp-receiver';
export { StubAuthorizationServer, type MintOptions, type Consent, type AuthorizationRequest } from './stub-authorization-server';
