module example.com/mathutil

go 1.19
