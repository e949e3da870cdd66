// The interactive reference: Swagger UI over the service's own description. Everything it loads comes from this
// origin (the page's Content-Security-Policy allows nothing else).
window.addEventListener("DOMContentLoaded", () => {
  window.reference = SwaggerUIBundle({
    url: "/api/v2/openapi.json",
    dom_id: "#reference",
    deepLinking: true,
    filter: true,
    docExpansion: "none",
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
