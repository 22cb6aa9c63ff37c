// `node --import ./sim/tsLoader/register.mjs`: registers hooks.mjs for this thread, with stack traces mapped back
// to the TypeScript sources. The `sim` and `bench` scripts run on it alone: tsx would compile every `.ts` file again,
// with keepNames.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./hooks.mjs', import.meta.url);
