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

var builder = WebApplication.CreateBuilder(args);
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
});

app.Run();
