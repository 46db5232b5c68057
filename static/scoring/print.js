// The print pages' "Print" button. A file rather than an onclick attribute: the
// Content-Security-Policy (config/settings/base.py) runs no inline handler.
document.addEventListener("click", function (e) {
  if (e.target.closest("[data-action=print]")) window.print();
});
