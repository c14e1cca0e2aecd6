// Where `vite build` writes the dashboard; the gateway serves this folder at /dashboard.
export const dashboardDist = new URL("./dist/", import.meta.url);
