import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/preact-query";
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, type Self, session } from "./api.ts";
import "./style.css";
import { AdminView } from "./views/admin.tsx";
import { KeysView } from "./views/keys.tsx";
import { ResponsesView } from "./views/responses.tsx";
import { SignIn } from "./views/sign-in.tsx";
import { TasksView } from "./views/tasks.tsx";
import { UsageView } from "./views/usage.tsx";

const BASE = "/dashboard/";
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

const VIEWS = [
  { path: "", label: "Usage" },
  { path: "keys", label: "Keys" },
  { path: "tasks", label: "Tasks" },
  { path: "responses", label: "Responses" },
  { path: "admin", label: "Admin", admin: true },
] as const;

const currentPath = () => location.pathname.slice(BASE.length).replace(/\/$/, "");

function usePath(): [string, (path: string) => void] {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const onPop = () => setPath(currentPath());
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  return [
    path,
    (next) => {
      history.pushState(null, "", BASE + next);
      setPath(next);
    },
  ];
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const [path, go] = usePath();
  const self = useQuery({ queryKey: ["self"], queryFn: () => manage<Self>("/api/user/self") });
  useEffect(() => {
    if (self.error instanceof ApiError && self.error.status === 401) onSignOut();
  }, [self.error, onSignOut]);
  const admin = self.data?.role === "admin";
  const views = VIEWS.filter((v) => !("admin" in v) || admin);
  const view = views.find((v) => v.path === path) ?? views[0]!;
  const first = useRef(true);
  useEffect(() => {
    document.title = `${view.label} · Interlingua`;
    // After a section change, keyboard and screen-reader users land on its content.
    if (first.current) first.current = false;
    else document.getElementById("main")?.focus();
  }, [view]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <strong>Interlingua</strong>
        <nav aria-label="Sections">
          {views.map((v) => (
            <a
              key={v.path}
              href={BASE + v.path}
              aria-current={v === view ? "page" : undefined}
              onClick={(event) => {
                event.preventDefault();
                go(v.path);
              }}
            >
              {v.label}
            </a>
          ))}
        </nav>
        <span class="who">
          {self.data?.id}
          {admin ? " (admin)" : ""}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{view.label}</h1>
        {view.path === "" && <UsageView self={self.data} />}
        {view.path === "keys" && <KeysView />}
        {view.path === "tasks" && <TasksView />}
        {view.path === "responses" && <ResponsesView />}
        {view.path === "admin" && admin && <AdminView />}
      </main>
    </>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(session.get() !== null);
  const signOut = () => {
    session.clear();
    queryClient.clear();
    setSignedIn(false);
  };
  return (
    <QueryClientProvider client={queryClient}>
      {signedIn ? <Shell onSignOut={signOut} /> : <SignIn onSignedIn={() => setSignedIn(true)} />}
    </QueryClientProvider>
  );
}

render(<App />, document.getElementById("app")!);
