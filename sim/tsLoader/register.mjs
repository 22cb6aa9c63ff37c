// `node --import ./sim/tsLoader/register.mjs`: registers hooks.mjs for this thread, with stack traces mapped back
// to the TypeScript sources. Loaded after tsx, it takes the `.ts` files and leaves the rest to tsx.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./hooks.mjs', import.meta.url);
