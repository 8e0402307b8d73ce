// The notes server, scaled out as main.js does it, with lists that change at run time: notes
// itself never changes its lists, so the scale-out suite's list_changed case runs this entry
// (createNotesApp with `dynamic: true` and one more tool, `add_tool`, that adds a tool).
// Plain JavaScript over the built app, so it runs without a build of its own. Needs REDIS_URL.
const { defineTool } = require('@mcpkit/core');
const { serveHttp } = require('@mcpkit/fastify');
const { createNotesApp } = require('../../dist/app.js');
const { notesScaleOut } = require('../../dist/scale-out.js');

const scale = notesScaleOut();
if (!scale) throw new Error('dynamic-notes.js needs REDIS_URL');
const app = createNotesApp(undefined, scale.tasks, undefined, { ...scale.app, dynamic: true });
let added = 0;
app.addProviders([
  defineTool({ name: 'add_tool', description: 'Adds a tool to this instance (every session hears tools/list_changed)', input: null }, () => {
    added += 1;
    app.addProviders([defineTool({ name: `extra_${added}`, description: 'Added at run time', input: null }, () => 'extra')]);
    return `added extra_${added}`;
  }),
]);

scale
  .ready()
  .then(() => serveHttp(app, { host: '127.0.0.1', port: Number(process.env.PORT ?? 0), ...scale.http }))
  .then((server) => {
    const stop = () =>
      void server
        .close()
        .then(() => scale.close())
        .then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.stderr.write(`dynamic notes listening on ${server.url}\n`);
  })
  .catch((error) => {
    process.stderr.write(`dynamic notes could not start: ${error.message}\n`);
    process.exit(1);
  });
