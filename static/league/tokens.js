// The API tokens page (templates/league/tokens.html): a click in the new key's field selects all of
// it. Its copy button is the site's (tournaments/copy.js), shown only where it works: without
// JavaScript it stays hidden, and the key's field can be selected and copied by hand.
(function () {
  "use strict";
  document.querySelectorAll("input[readonly][data-testid='token-key']").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
})();
