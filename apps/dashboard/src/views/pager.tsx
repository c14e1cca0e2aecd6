/** Previous / next over a listing's pages; `note` follows the page count (e.g. a row total). */
export function Pager(props: {
  label: string;
  page: number;
  pages: number;
  setPage: (page: number) => void;
  note?: string;
}) {
  const { label, page, pages, setPage, note } = props;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
        {note === undefined ? "" : ` ${note}`}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
