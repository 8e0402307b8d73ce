// A loopback port nothing listens on now, for a child server the scripts start (Verdaccio, workerd).
'use strict';

const { createServer } = require('node:net');

/** Resolves to a free port on 127.0.0.1 (bound, read, released). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

module.exports = { freePort };
