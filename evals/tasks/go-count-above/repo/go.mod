module example.com/limits

go 1.19
