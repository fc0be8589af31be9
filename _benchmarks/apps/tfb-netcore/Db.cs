// Db: the app's PostgreSQL access with Npgsql, as TechEmpower's aspnetcore
// Minimal app does it but without Dapper: one NpgsqlDataSource (its pool
// of DB_POOL connections, default 32) to DATABASE_URL, the reads of a
// request on one connection, and its updates written by one UPDATE over
// unnest'ed arrays, ids sorted so that concurrent requests lock rows in one
// order. A World drawn twice in one request is written once and answered
// with the value written.

using Npgsql;
using NpgsqlTypes;

namespace TfbNetCore;

public record struct World(int Id, int RandomNumber);

public record Fortune(int Id, string Message);

public sealed class Db
{
    private const string SelectWorld = "SELECT id, randomnumber FROM world WHERE id = $1";
    private const string SelectFortunes = "SELECT id, message FROM fortune";
    private const string UpdateWorlds = "UPDATE world SET randomnumber = u.n FROM unnest($1::int[], $2::int[]) AS u(id, n) WHERE world.id = u.id";

    private readonly NpgsqlDataSource _source;

    public Db(NpgsqlDataSource source) => _source = source;

    // FromUrl builds a data source from a postgres:// URL, which Npgsql's
    // connection strings do not take as they are.
    public static NpgsqlDataSource FromUrl(string url, int poolSize)
    {
        var uri = new Uri(url);
        var userInfo = uri.UserInfo.Split(':', 2);
        var builder = new NpgsqlConnectionStringBuilder
        {
            Host = uri.Host,
            Port = uri.Port > 0 ? uri.Port : 5432,
            Database = uri.AbsolutePath.TrimStart('/'),
            Username = Uri.UnescapeDataString(userInfo[0]),
            Password = userInfo.Length > 1 ? Uri.UnescapeDataString(userInfo[1]) : null,
            SslMode = SslMode.Disable,
            MaxPoolSize = poolSize,
            MinPoolSize = poolSize,
            Multiplexing = false,
            NoResetOnClose = true,
            MaxAutoPrepare = 8,
            AutoPrepareMinUsages = 2,
        };
        return NpgsqlDataSource.Create(builder.ConnectionString);
    }

    private static int RandomId() => Random.Shared.Next(1, 10001);

    // ParseQueries clamps the queries parameter to 1..500; a missing or
    // malformed one is 1.
    public static int ParseQueries(string? value) =>
        int.TryParse(value, out var n) ? Math.Clamp(n, 1, 500) : 1;

    private static async Task<World> ReadWorld(NpgsqlConnection conn)
    {
        await using var cmd = new NpgsqlCommand(SelectWorld, conn);
        cmd.Parameters.Add(new NpgsqlParameter<int> { TypedValue = RandomId() });
        await using var reader = await cmd.ExecuteReaderAsync();
        await reader.ReadAsync();
        return new World(reader.GetInt32(0), reader.GetInt32(1));
    }

    public async Task<World> OneWorld()
    {
        await using var conn = await _source.OpenConnectionAsync();
        return await ReadWorld(conn);
    }

    public async Task<World[]> Worlds(int count)
    {
        await using var conn = await _source.OpenConnectionAsync();
        return await ReadWorlds(conn, count);
    }

    private static async Task<World[]> ReadWorlds(NpgsqlConnection conn, int count)
    {
        var worlds = new World[count];
        for (var i = 0; i < count; i++)
        {
            worlds[i] = await ReadWorld(conn);
        }
        return worlds;
    }

    public async Task<World[]> UpdateWorldRows(int count)
    {
        await using var conn = await _source.OpenConnectionAsync();
        var worlds = await ReadWorlds(conn, count);
        Array.Sort(worlds, (a, b) => a.Id.CompareTo(b.Id));
        var ids = new List<int>(count);
        var numbers = new List<int>(count);
        for (var i = 0; i < worlds.Length; i++)
        {
            if (i > 0 && worlds[i].Id == worlds[i - 1].Id)
            {
                worlds[i].RandomNumber = worlds[i - 1].RandomNumber;
                continue;
            }
            worlds[i].RandomNumber = RandomId();
            ids.Add(worlds[i].Id);
            numbers.Add(worlds[i].RandomNumber);
        }
        await using var cmd = new NpgsqlCommand(UpdateWorlds, conn);
        cmd.Parameters.Add(new NpgsqlParameter<int[]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Integer, TypedValue = ids.ToArray() });
        cmd.Parameters.Add(new NpgsqlParameter<int[]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Integer, TypedValue = numbers.ToArray() });
        await cmd.ExecuteNonQueryAsync();
        return worlds;
    }

    // Fortunes returns the Fortune rows and the one added at request time,
    // sorted by message (ordinal, as the other stacks compare).
    public async Task<List<Fortune>> Fortunes()
    {
        var fortunes = new List<Fortune>(16);
        await using var conn = await _source.OpenConnectionAsync();
        await using var cmd = new NpgsqlCommand(SelectFortunes, conn);
        await using var reader = await cmd.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            fortunes.Add(new Fortune(reader.GetInt32(0), reader.GetString(1)));
        }
        fortunes.Add(new Fortune(0, "Additional fortune added at request time."));
        fortunes.Sort((a, b) => string.CompareOrdinal(a.Message, b.Message));
        return fortunes;
    }
}
