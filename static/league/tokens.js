// The API tokens page (templates/league/tokens.html): the new key's copy button, shown only where
// it works (it stays hidden without JavaScript: the key's field can be selected and copied by hand).
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.select();
      const say = function (words, ms) {
        button.textContent = words || label;
        clearTimeout(button.restore);
        button.restore = setTimeout(function () { button.textContent = label; }, ms);
      };
      const byHand = function () {  // the key stays selected: a long press or Ctrl+C copies it
        field.select();
        let copied = false;
        try {
          copied = Boolean(document.execCommand("copy"));
        } catch (error) {
          copied = false;
        }
        if (copied) say(button.dataset.copied, 2000);
        else say(button.dataset.notCopied, 6000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        // The clipboard's answer, or none within a second and a half: then the old way (copy.js).
        let answered = false;
        const once = function (then) {
          return function () {
            if (answered) return;
            answered = true;
            clearTimeout(late);
            then();
          };
        };
        const late = setTimeout(once(byHand), 1500);
        navigator.clipboard.writeText(field.value).then(once(function () { say(button.dataset.copied, 2000); }), once(byHand));
      } else {
        byHand();
      }
    });
  });
  // A click in the key's field selects all of it.
  document.querySelectorAll("input[readonly][data-testid='token-key']").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
})();
