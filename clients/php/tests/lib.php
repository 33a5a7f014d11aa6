<?php

// Shared by tests/unit.php and tests/live.php: a tiny assertion helper (no PHPUnit) and a way to run
// `php -S` in the background on a free port.

declare(strict_types=1);

require_once __DIR__ . '/../autoload.php';

final class T
{
    public static int $passed = 0;
    public static int $failed = 0;
    /** @var list<string> */
    public static array $failures = [];

    public static function check(string $name, bool $ok, string $detail = ''): bool
    {
        if ($ok) {
            self::$passed++;
            echo "ok - $name\n";
        } else {
            self::$failed++;
            self::$failures[] = $name . ($detail !== '' ? ": $detail" : '');
            echo "not ok - $name" . ($detail !== '' ? " ($detail)" : '') . "\n";
        }
        return $ok;
    }

    public static function same(string $name, mixed $expected, mixed $actual): bool
    {
        return self::check($name, $expected === $actual, 'expected ' . self::show($expected) . ', got ' . self::show($actual));
    }

    /**
     * Runs $fn and checks it throws an instance of $class; returns the exception (or null).
     *
     * @template E of \Throwable
     * @param class-string<E> $class
     * @return E|null
     */
    public static function throws(string $name, string $class, callable $fn): ?\Throwable
    {
        try {
            $fn();
        } catch (\Throwable $e) {
            self::check($name, $e instanceof $class, 'threw ' . get_class($e) . ': ' . $e->getMessage());
            return $e instanceof $class ? $e : null;
        }
        self::check($name, false, "nothing thrown, expected $class");
        return null;
    }

    /** Runs a group of checks; an unexpected exception is one failure, and the rest still run. */
    public static function section(string $title, callable $fn): void
    {
        echo "# $title\n";
        try {
            $fn();
        } catch (\Throwable $e) {
            $extra = $e instanceof \StoreApi\Exception\ApiException
                ? sprintf(' [%s %d, request %s, details %s]', $e->getErrorCode(), $e->getStatus(), $e->getRequestId() ?? '-', json_encode($e->getDetails()))
                : '';
            self::check("$title: no unexpected exception", false, get_class($e) . ': ' . $e->getMessage() . $extra . ' at ' . $e->getFile() . ':' . $e->getLine());
        }
    }

    public static function show(mixed $value): string
    {
        $text = json_encode($value, JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION);
        return $text === false ? var_export($value, true) : (strlen($text) > 300 ? substr($text, 0, 300) . '...' : $text);
    }

    /** Prints the final line and exits: 0 when everything passed. */
    public static function finish(): never
    {
        if (self::$failures !== []) {
            echo "\nFailed:\n";
            foreach (self::$failures as $failure) {
                echo "  - $failure\n";
            }
        }
        echo self::$passed . ' passed, ' . self::$failed . " failed\n";
        exit(self::$failed === 0 && self::$passed > 0 ? 0 : 1);
    }
}

/**
 * `php -S 127.0.0.1:<free port> <router>` in the background, stopped by stop() or at exit.
 */
final class PhpServer
{
    /** @var resource|null */
    private $process;
    public readonly int $port;
    public readonly string $base;
    private string $log;

    /** @param array<string, string> $env */
    public function __construct(string $router, array $env = [])
    {
        $this->port = self::freePort();
        $this->base = 'http://127.0.0.1:' . $this->port;
        $this->log = tempnam(sys_get_temp_dir(), 'store-php-server-');
        $command = [PHP_BINARY, '-S', '127.0.0.1:' . $this->port, $router];
        $spec = [0 => ['file', '/dev/null', 'r'], 1 => ['file', $this->log, 'a'], 2 => ['file', $this->log, 'a']];
        $process = proc_open($command, $spec, $pipes, dirname($router), $env + getenv());
        if (!is_resource($process)) {
            throw new RuntimeException("could not start php -S for $router");
        }
        $this->process = $process;
        register_shutdown_function([$this, 'stop']);
        $until = microtime(true) + 10;
        while (microtime(true) < $until) {
            $socket = @fsockopen('127.0.0.1', $this->port, $errno, $errstr, 0.2);
            if ($socket !== false) {
                fclose($socket);
                return;
            }
            if (!proc_get_status($process)['running']) {
                break;
            }
            usleep(50_000);
        }
        $this->stop();
        throw new RuntimeException("php -S for $router did not start: " . (string) @file_get_contents($this->log));
    }

    public static function freePort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($server === false) {
            throw new RuntimeException("no free port: $errstr");
        }
        $name = stream_socket_get_name($server, false);
        fclose($server);
        return (int) substr((string) $name, strrpos((string) $name, ':') + 1);
    }

    public function stop(): void
    {
        if ($this->process === null) {
            return;
        }
        $process = $this->process;
        $this->process = null;
        proc_terminate($process, 15);
        $until = microtime(true) + 5;
        while (proc_get_status($process)['running'] && microtime(true) < $until) {
            usleep(20_000);
        }
        if (proc_get_status($process)['running']) {
            proc_terminate($process, 9);
        }
        proc_close($process);
        @unlink($this->log);
    }
}

/** A fresh temporary directory, removed at exit. */
function temp_dir(string $prefix): string
{
    $dir = sys_get_temp_dir() . '/' . $prefix . bin2hex(random_bytes(6));
    mkdir($dir, 0700, true);
    register_shutdown_function(static function () use ($dir): void {
        foreach (glob($dir . '/*') ?: [] as $file) {
            @unlink($file);
        }
        @rmdir($dir);
    });
    return $dir;
}
