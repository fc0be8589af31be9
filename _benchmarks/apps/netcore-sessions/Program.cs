// netcore-sessions: the sessions comparison on ASP.NET Core. Sessions are
// kept in the in-memory IDistributedCache (AddDistributedMemoryCache) by the
// session middleware (AddSession + UseSession). GET /setget loads the
// session, sets "key" to "value", reads it back and writes it. A request
// without a cookie starts a session, and the middleware sets its cookie.
// The cookie is never marked Secure (the benchmark is plain HTTP, where a
// secure cookie would not be sent back) and is essential, so no consent
// policy can suppress it.
//
// Logging providers are cleared, so nothing is logged during load; the two
// readiness lines are printed here in the words every app of the suite uses.
// The address is --urls / ASPNETCORE_URLS when given, else
// http://127.0.0.1:$PORT (5000).
//
// A third line, "Runtime: ...", states the GC mode (server or workstation,
// concurrent or not), the processor count the runtime sees (the CPUs it is
// pinned to) and the environment; the runner records it in results.json.

using System.Runtime;

// Always the Production environment, whatever ASPNETCORE_ENVIRONMENT says:
// no developer exception page, no development-only configuration.
var builder = WebApplication.CreateBuilder(new WebApplicationOptions
{
    Args = args,
    EnvironmentName = Environments.Production,
});
builder.Logging.ClearProviders();
if (string.IsNullOrEmpty(builder.Configuration["urls"]))
{
    var port = Environment.GetEnvironmentVariable("PORT") ?? "5000";
    builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
}
builder.Services.AddDistributedMemoryCache();
builder.Services.AddSession(options =>
{
    options.Cookie.HttpOnly = true;
    options.Cookie.IsEssential = true;
    options.Cookie.SecurePolicy = CookieSecurePolicy.None;
});

var app = builder.Build();

app.UseSession();

app.MapGet("/setget", async (HttpContext context) =>
{
    await context.Session.LoadAsync();
    context.Session.SetString("key", "value");
    return context.Session.GetString("key");
});

app.Lifetime.ApplicationStarted.Register(() =>
{
    foreach (var address in app.Urls)
    {
        Console.WriteLine($"Now listening on: {address}");
    }
    Console.WriteLine("Application started. Press CTRL+C to shut down.");
    // The runtime settings that matter for the measurement, in the one
    // extra line the suite allows after the readiness lines.
    var gc = GCSettings.IsServerGC ? "server" : "workstation";
    var concurrent = GCSettings.LatencyMode == GCLatencyMode.Batch ? "non-concurrent" : "concurrent";
    Console.WriteLine($"Runtime: .NET {Environment.Version}; GC: {gc}, {concurrent}; processors: {Environment.ProcessorCount}; environment: {app.Environment.EnvironmentName}");
});

app.Run();
