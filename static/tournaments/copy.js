// A "Copy" button (data-copy: the selector of the field or element whose text it copies; data-copied: what the
// button says for a moment once it has). The buttons are hidden until this script shows them: without
// it the snippet is still there to select and copy by hand.
(function () {
  "use strict";

  function copy(button) {
    const field = document.querySelector(button.dataset.copy);
    if (!field) return;
    const text = field.value !== undefined ? field.value : field.textContent;
    const done = function () {
      const label = button.textContent;
      button.textContent = button.dataset.copied || label;
      window.setTimeout(function () { button.textContent = label; }, 2000);
    };
    const byHand = function () {  // no clipboard API (an http:// page other than localhost)
      if (typeof field.select === "function") field.select();
      else window.getSelection().selectAllChildren(field);  // selected: copied below, or by hand
      if (document.execCommand && document.execCommand("copy")) done();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, byHand);
    } else {
      byHand();
    }
  }

  function init() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
