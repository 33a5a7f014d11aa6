<?php

// A PSR-4 autoloader for using the client without Composer: require this file, then use StoreApi\Client.
// (With Composer, its own autoloader does the same from composer.json.)

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'StoreApi\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
