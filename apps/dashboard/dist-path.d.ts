/** The folder of the built dashboard (`vite build`), served by the gateway at /dashboard. */
export declare const dashboardDist: URL;
