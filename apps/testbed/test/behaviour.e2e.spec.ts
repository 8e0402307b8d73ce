import { describeBehaviour, stdioPeer } from './behaviour';

// The suite every message transport is held to (docs/test holds the WebSocket example to it too).
describeBehaviour('stdio', stdioPeer);
