/**
 * `npm run screens:status`: how many console screens are still the shared "not available yet"
 * placeholder, so progress on the console is a number. Reads the route table as data; a route
 * counts once per path (the two dashboards are two routes of one view). `--json` prints one
 * JSON object instead of the table.
 */
import { type ScreenRoute, screenRoutes } from '../console/src/routes/routes.ts';

interface GroupCount {
  group: string;
  routes: number;
  placeholders: number;
}

const groups = new Map<string, GroupCount>();
for (const route of screenRoutes) {
  const key = `${route.frame === 'backend' ? 'backend' : 'public'}:${route.group}`;
  const count = groups.get(key) ?? { group: key, routes: 0, placeholders: 0 };
  count.routes += 1;
  if (route.placeholder) count.placeholders += 1;
  groups.set(key, count);
}

const placeholders = screenRoutes.filter((route: ScreenRoute) => route.placeholder);
const summary = {
  routes: screenRoutes.length,
  built: screenRoutes.length - placeholders.length,
  placeholders: placeholders.length,
  backendPlaceholders: placeholders.filter((route) => route.frame === 'backend').length,
  groups: [...groups.values()],
};

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} else {
  const lines = [
    `screens: ${summary.routes} routes, ${summary.built} built, ${summary.placeholders} placeholders (${summary.backendPlaceholders} in the backend)`,
    '',
    `${'group'.padEnd(34)}${'routes'.padStart(7)}${'placeholders'.padStart(14)}`,
    ...summary.groups.map(
      (g) => `${g.group.padEnd(34)}${String(g.routes).padStart(7)}${String(g.placeholders).padStart(14)}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
