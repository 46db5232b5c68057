// A "Copy" button (data-copy: the selector of the field or element whose text it copies; data-copied: what the
// button says for a moment once it has; data-not-copied: what it says when the browser copied nothing, the text
// then left selected to copy by hand). The buttons are hidden until this script shows them: without it the
// snippet is still there to select and copy by hand.
(function () {
  "use strict";

  function select(field) {
    if (typeof field.select === "function") field.select();
    else window.getSelection().selectAllChildren(field);
  }

  function copy(button) {
    const field = document.querySelector(button.dataset.copy);
    if (!field) return;
    const text = field.value !== undefined ? field.value : field.textContent;
    const label = button.dataset.label;
    const say = function (words, ms) {
      button.textContent = words || label;
      window.clearTimeout(button.restore);  // a second tap: its own words, then the button's own label
      button.restore = window.setTimeout(function () { button.textContent = label; }, ms);
    };
    const byHand = function () {  // no clipboard API (an http:// page other than localhost), or it refused
      select(field);
      let copied = false;
      try {
        copied = Boolean(document.execCommand && document.execCommand("copy"));
      } catch (error) {
        copied = false;
      }
      if (copied) say(button.dataset.copied, 2000);
      else say(button.dataset.notCopied, 6000);  // selected: a long press or Ctrl+C copies it
    };
    if (navigator.clipboard && window.isSecureContext) {
      // The clipboard's answer, or none within a second and a half (a browser that never answers,
      // seen under load): then the old way, while the tap still allows it. The first to come counts.
      let answered = false;
      const once = function (then) {
        return function () {
          if (answered) return;
          answered = true;
          window.clearTimeout(late);
          then();
        };
      };
      const late = window.setTimeout(once(byHand), 1500);
      navigator.clipboard.writeText(text).then(once(function () { say(button.dataset.copied, 2000); }), once(byHand));
    } else {
      byHand();
    }
  }

  function init() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.dataset.label = button.textContent;
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
